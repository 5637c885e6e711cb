import { describe, expect, it } from 'vitest';
import { assertValidBlobKey, isValidBlobKey } from '../../../worker/src/adapters/blob/blob-key.js';
import { parseStorageUrl } from '../../../worker/src/adapters/blob/storage-url.js';

const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI-secret' };

describe('parseStorageUrl', () => {
  it('parses file: directories in both spellings', () => {
    expect(parseStorageUrl('file:./data/uploads', {})).toEqual({ kind: 'file', root: './data/uploads' });
    expect(parseStorageUrl('file:/var/lib/cms', {})).toEqual({ kind: 'file', root: '/var/lib/cms' });
    expect(parseStorageUrl('file:///var/lib/my%20cms', {})).toEqual({ kind: 'file', root: '/var/lib/my cms' });
  });

  it('parses s3:// with endpoint, region and path style', () => {
    expect(parseStorageUrl('s3://media?endpoint=http://127.0.0.1:9000&region=auto&forcePathStyle=true', creds)).toEqual(
      {
        kind: 's3',
        bucket: 'media',
        endpoint: 'http://127.0.0.1:9000',
        region: 'auto',
        forcePathStyle: true,
        ...creds,
      },
    );
    expect(parseStorageUrl('s3://my.bucket?region=eu-west-1&forcePathStyle=false', creds)).toMatchObject({
      bucket: 'my.bucket',
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      forcePathStyle: false,
    });
    expect(parseStorageUrl('s3://media', creds)).toMatchObject({ region: 'us-east-1', forcePathStyle: true });
  });

  it('takes the endpoint and region from AWS_ENDPOINT_URL_S3 and AWS_REGION where the URL names none', () => {
    const aws = { ...creds, endpoint: 'http://seaweedfs:8333/', region: 'eu-central-1' };
    expect(parseStorageUrl('s3://media', aws)).toMatchObject({
      endpoint: 'http://seaweedfs:8333',
      region: 'eu-central-1',
    });
    expect(parseStorageUrl('s3://media', { ...creds, region: 'eu-central-1' })).toMatchObject({
      endpoint: 'https://s3.eu-central-1.amazonaws.com',
    });
    // The URL's own parameters win.
    expect(parseStorageUrl('s3://media?endpoint=http://127.0.0.1:9000&region=auto', aws)).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
    });
    expect(() => parseStorageUrl('s3://media', { ...creds, endpoint: 'ftp://x' })).toThrow(
      /STORAGE_URL.*http or https/,
    );
  });

  it.each([
    ['', /must start with/],
    ['ftp://x', /must start with/],
    ['file:', /needs a directory/],
    ['file://server/share', /empty host/],
    ['s3://', /bucket name/],
    ['s3://Bad_Bucket!', /bucket name/],
    ['s3://media?endpoint=ftp://x', /http or https/],
    ['s3://media?endpoint=not a url', /absolute http/],
    ['s3://media?forcePathStyle=yes', /forcePathStyle/],
    ['s3://media?region=EU WEST', /region/],
    ['s3://media?regoin=auto', /unknown parameter/],
    ['s3://media?region=a&region=b', /repeated/],
    ['s3://media/extra/path', /expected s3:/],
  ])('refuses %j, naming STORAGE_URL', (url, reason) => {
    expect(() => parseStorageUrl(url, creds)).toThrow(/STORAGE_URL/);
    expect(() => parseStorageUrl(url, creds)).toThrow(reason);
  });

  it('needs both S3 credentials and never echoes a secret', () => {
    expect(() => parseStorageUrl('s3://media', {})).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => parseStorageUrl('s3://media', { accessKeyId: 'x' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    for (const url of ['s3://AKID:topsecret@media', 's3://media?endpoint=http://AKID:topsecret@host']) {
      expect(() => parseStorageUrl(url, creds)).toThrow(/STORAGE_URL/);
      try {
        parseStorageUrl(url, creds);
      } catch (error) {
        expect((error as Error).message).not.toContain('topsecret');
      }
    }
  });
});

describe('blob keys', () => {
  it('accepts the keys the application makes', () => {
    for (const key of [
      'originals/0190f5c4-7b3a-7c1e-9a2b-3c4d5e6f7a8b.jpg',
      'variants/abc/w640.webp',
      'a',
      '.well-known',
      'a/.b',
    ]) {
      expect(isValidBlobKey(key), key).toBe(true);
      expect(() => assertValidBlobKey(key)).not.toThrow();
    }
  });

  it('refuses traversal, odd characters and unbounded length with invalid_request', () => {
    for (const key of [
      '../x',
      '/abs',
      'a//b',
      'a\\b',
      '%2e%2e/x',
      'a\0b',
      'a/',
      '.',
      '..',
      'a/./b',
      'x'.repeat(513),
      `${'x'.repeat(201)}/a`,
      'ü',
    ]) {
      expect(isValidBlobKey(key), JSON.stringify(key)).toBe(false);
      expect(() => assertValidBlobKey(key)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
    expect(isValidBlobKey(42)).toBe(false);
  });
});

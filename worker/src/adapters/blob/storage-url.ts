/**
 * Parses STORAGE_URL (docs/configuration.md) at start-up. Errors are plain Errors
 * naming the setting, because they stop the process before it serves; they
 * never repeat a secret.
 *
 *   file:DIR            file:./data/uploads, file:/var/lib/cms, file:///var/lib/cms
 *   s3://BUCKET?endpoint=https://host:port&region=auto&forcePathStyle=true
 *
 * For s3, `region` defaults to AWS_REGION, else us-east-1, `endpoint` to
 * AWS_ENDPOINT_URL_S3, else AWS's regional endpoint (the URL's own parameters
 * win over both), and `forcePathStyle` to true (what MinIO, R2's S3 API and s3rver expect, and
 * the only style that works for bucket names that are not DNS labels).
 */
export type StorageConfig =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string;
      region: string;
      forcePathStyle: boolean;
      accessKeyId: string;
      secretAccessKey: string;
    };

const S3_BUCKET = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,64}$/;
const S3_PARAMS = new Set(['endpoint', 'region', 'forcePathStyle']);

/** The credentials, and the endpoint and region used where the URL names none (AWS_ENDPOINT_URL_S3, AWS_REGION). */
export interface StorageDefaults {
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  endpoint?: string | undefined;
  region?: string | undefined;
}

export function parseStorageUrl(url: string, credentials: StorageDefaults): StorageConfig {
  const value = url.trim();
  if (value.startsWith('file:')) return { kind: 'file', root: parseFileRoot(value) };
  if (value.startsWith('s3://')) return parseS3(value, credentials);
  throw fail('must start with "file:" or "s3://"');
}

function parseFileRoot(value: string): string {
  let root = value.slice('file:'.length);
  if (root.startsWith('//')) {
    // file:///abs/path: the URL form; a host part (file://server/share) is not supported.
    if (!root.startsWith('///')) throw fail('file URLs must have an empty host (file:///path) or use file:DIR');
    try {
      root = decodeURIComponent(root.slice(2));
    } catch {
      throw fail('the file path is not valid percent-encoding');
    }
  }
  if (root === '') throw fail('file: needs a directory, e.g. file:./data/uploads');
  if (root.includes('\0')) throw fail('the directory must not contain NUL');
  return root;
}

function parseS3(value: string, credentials: StorageDefaults): StorageConfig {
  const match = /^s3:\/\/([^/?#]*)\/?(?:\?([^#]*))?$/.exec(value);
  if (!match) throw fail('expected s3://BUCKET?endpoint=…&region=…&forcePathStyle=true');
  const bucket = match[1] ?? '';
  if (bucket.includes('@')) {
    throw fail('credentials do not belong in the URL; set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  if (!S3_BUCKET.test(bucket)) throw fail('the bucket name must be 3-63 characters of a-z, 0-9, ".", "_" or "-"');

  const params = new URLSearchParams(match[2] ?? '');
  for (const name of params.keys()) {
    if (!S3_PARAMS.has(name))
      throw fail(`unknown parameter "${printable(name)}" (allowed: endpoint, region, forcePathStyle)`);
    if (params.getAll(name).length > 1) throw fail(`parameter "${name}" is repeated`);
  }

  const region = params.get('region') ?? credentials.region ?? 'us-east-1';
  if (!REGION.test(region)) throw fail('region must be lower-case letters, digits and "-"');

  const endpoint = parseEndpoint(
    params.get('endpoint') ?? credentials.endpoint ?? `https://s3.${region}.amazonaws.com`,
  );

  const style = params.get('forcePathStyle') ?? 'true';
  if (style !== 'true' && style !== 'false') throw fail('forcePathStyle must be "true" or "false"');

  const accessKeyId = credentials.accessKeyId?.trim() ?? '';
  const secretAccessKey = credentials.secretAccessKey?.trim() ?? '';
  if (!accessKeyId || !secretAccessKey) {
    throw fail(
      'an s3:// store needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) to be set',
    );
  }
  return { kind: 's3', bucket, endpoint, region, forcePathStyle: style === 'true', accessKeyId, secretAccessKey };
}

function parseEndpoint(raw: string): string {
  let endpoint: URL;
  try {
    endpoint = new URL(raw);
  } catch {
    throw fail('endpoint must be an absolute http(s) URL, e.g. endpoint=http://127.0.0.1:9000');
  }
  if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw fail('endpoint must use http or https');
  if (endpoint.username || endpoint.password) {
    throw fail('credentials do not belong in the endpoint; set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  if (endpoint.search || endpoint.hash) throw fail('endpoint must not have a query or fragment');
  return endpoint.origin + endpoint.pathname.replace(/\/+$/, '');
}

function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);
}

function fail(reason: string): Error {
  return new Error(`STORAGE_URL is malformed: ${reason}`);
}

import { describe, expect, it } from 'vitest';
import { keyOf } from '../../worker/src/http/middleware/public-read-cache.js';
import { isCampaignTag, withoutCampaignTags } from '../../worker/src/http/query-policy.js';

describe('campaign tags', () => {
  it('are the utm_ parameters, case as written', () => {
    expect(['utm_source', 'utm_medium', 'utm_'].every(isCampaignTag)).toBe(true);
    expect(['utm', 'UTM_source', 'xutm_source', 'limit'].some(isCampaignTag)).toBe(false);
  });

  it('are left out of the cache key, so a tagged link reads the plain answer', () => {
    const plain = 'https://cms.example/v1/articles?limit=5';
    expect(keyOf('https://cms.example/v1/articles?utm_source=a&limit=5&utm_medium=b')).toBe(keyOf(plain));
    expect(keyOf('https://cms.example/v1/articles/x?utm_source=a')).toBe(keyOf('https://cms.example/v1/articles/x'));
    // Other parameters keep their order and spelling; a URL without tags is the same string.
    expect(withoutCampaignTags('/a?b=1&utm_x=2&c=3')).toBe('/a?b=1&c=3');
    expect(withoutCampaignTags('/a?utmx=1&b=2')).toBe('/a?utmx=1&b=2');
    const untouched = '/v1/articles?limit=5&cursor=abc';
    expect(withoutCampaignTags(untouched)).toBe(untouched);
  });
});

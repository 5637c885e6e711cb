/** What an answer's links are made of: the server's public origin and the variant widths it serves. */
export interface LinkBase {
  /** `PUBLIC_URL`, or the request's origin when it is unset; no trailing slash. */
  readonly origin: string;
  /** IMAGE_VARIANT_WIDTHS, ascending. */
  readonly widths: readonly number[];
}

const bare = (url: string) => url.replace(/\/+$/, '');

interface LinkSettings {
  publicUrl: string;
  publicUrlConfigured: boolean;
  imageVariantWidths: readonly number[];
}

/** The base of links made outside any request (the scheduler's webhook events): PUBLIC_URL, set or default. */
export const serverLinks = (settings: LinkSettings): LinkBase => ({
  origin: bare(settings.publicUrl),
  widths: settings.imageVariantWidths,
});

/**
 * The base of one request's answer: PUBLIC_URL when it is set (always, in
 * production: config/settings.ts), else the origin the request was sent to
 * (so a development server reached as http://192.168.1.5:8787 links there),
 * with the scheme a trusted proxy reported (`proto`: X-Forwarded-Proto or
 * Forwarded, http/client-address.ts), so that links behind TLS are https.
 */
export function requestLinks(settings: LinkSettings): (requestUrl: string, proto?: 'http' | 'https') => LinkBase {
  const fixed = settings.publicUrlConfigured ? serverLinks(settings) : undefined;
  return (requestUrl, proto) => {
    if (fixed) return fixed;
    const url = new URL(requestUrl);
    return { origin: proto ? `${proto}://${url.host}` : url.origin, widths: settings.imageVariantWidths };
  };
}

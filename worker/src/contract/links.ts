/** What an answer's links are made of: the server's public origin and the variant widths it serves. */
export interface LinkBase {
  /** `PUBLIC_URL`, or the request's origin when it is unset; no trailing slash. */
  readonly origin: string;
  /** IMAGE_VARIANT_WIDTHS, ascending. */
  readonly widths: readonly number[];
}

/** The base of links made outside any request (the scheduler's webhook events). */
export const serverLinks = (settings: { imageVariantWidths: readonly number[] }): LinkBase => ({
  origin: '',
  widths: settings.imageVariantWidths,
});

/**
 * "Variant queue under a bomb": 18 anonymous requests for variants of a
 * decode bomb (every width of IMAGE_VARIANT_WIDTHS' defaults in every
 * format), then one for a variant of a normal image; how long that one
 * takes. Before the render queue was shared fairly across images, it
 * waited for every bomb job ahead of it (127 s in the audit). `fetch` (its
 * own connection per request) rather than lib/http.ts, whose agent holds at
 * most 16 sockets: the normal request must not wait on the client's side.
 */
const WIDTHS = [160, 320, 640, 960, 1280, 1920];
const FORMATS = ['png', 'jpeg', 'webp'];

export interface QueueUnderBomb {
  status: number;
  ms: number;
  /** The bomb requests' statuses (0: no answer). */
  bombs: number[];
}

export async function normalBehindBombs(origin: string, bombPath: string, normalPath: string): Promise<QueueUnderBomb> {
  const ask = async (path: string) => {
    const res = await fetch(`${origin}${path}`);
    await res.arrayBuffer();
    return res.status;
  };
  const bombs = WIDTHS.flatMap((w) => FORMATS.map((f) => ask(`${bombPath}?w=${w}&format=${f}`).catch(() => 0)));
  // The bomb requests reach the server first (a server on this machine reads them in well under this).
  await new Promise((r) => setTimeout(r, 250));
  const started = performance.now();
  const status = await ask(`${normalPath}?w=160`).catch(() => 0);
  const ms = performance.now() - started;
  return { status, ms, bombs: await Promise.all(bombs) };
}

// The probe process of healthz-probe.ts: argv[2] is the server's origin.
const origin = process.argv[2];
let worst = 0;
let samples = 0;
let failures = 0;
let pendingSince: number | null = null;

process.on('message', (m: { type?: string } | null) => {
  if (m?.type !== 'mark') return;
  const waiting = pendingSince === null ? 0 : performance.now() - pendingSince;
  process.send?.({ worstMs: Math.max(worst, waiting), samples, failures });
  worst = 0;
  samples = 0;
  failures = 0;
});
process.on('disconnect', () => process.exit(0));

for (;;) {
  pendingSince = performance.now();
  try {
    const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
  } catch {
    failures++;
  }
  worst = Math.max(worst, performance.now() - pendingSince);
  pendingSince = null;
  samples++;
  await new Promise((r) => setTimeout(r, 5));
}

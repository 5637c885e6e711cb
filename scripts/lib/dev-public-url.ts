/**
 * `npm run dev`'s PUBLIC_URL: wrangler.toml pins http://localhost:8787 for
 * the default port; when `--port` (or `--ip`) moves the server, the
 * address actually served, so that image URLs, srcsets and e-mail links
 * point at it. Null when the arguments leave the default, or already set
 * PUBLIC_URL with `--var`.
 */
export function devPublicUrl(args: readonly string[]): string | null {
  const value = (name: string): string | undefined => {
    const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
    if (i < 0) return undefined;
    const arg = args[i]!;
    return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
  };
  if (
    args.some((a, i) => (a === '--var' && args[i + 1]?.startsWith('PUBLIC_URL:')) || a.startsWith('--var=PUBLIC_URL:'))
  )
    return null;
  const port = value('--port');
  const ip = value('--ip');
  if (port === undefined && ip === undefined) return null;
  const protocol = value('--local-protocol') === 'https' ? 'https' : 'http';
  // A wildcard address is reached as localhost; an IPv6 literal in brackets.
  const host =
    ip === undefined || ip === '0.0.0.0' || ip === '::' || ip === '*' ? 'localhost' : ip.includes(':') ? `[${ip}]` : ip;
  return `${protocol}://${host}:${port ?? '8787'}`;
}

/** Types for tcp-proxy.mjs, which the regression tests import. */
export interface TcpProxy {
  port: number;
  cut(): void;
  blackhole(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}
export function startTcpProxy(targetPort: number, targetHost?: string): Promise<TcpProxy>;

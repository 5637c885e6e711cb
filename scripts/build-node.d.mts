export const NODE_BUNDLE: string;
export const RENDER_WORKER_BUNDLE: string;
export function buildNode(options?: { force?: boolean }): Promise<boolean>;

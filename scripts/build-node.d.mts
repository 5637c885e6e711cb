export const NODE_BUNDLE: string;
export function buildNode(options?: { force?: boolean }): Promise<boolean>;

/** What /v1/system/version reports besides package.json's version (see build-info.mjs). */
export function buildStamp(): { commit: string; builtAt: string };

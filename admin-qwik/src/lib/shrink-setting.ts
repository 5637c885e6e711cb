/**
 * The editor's "shrink large images before upload" choice, remembered per
 * browser in localStorage (a preference, not a secret). On unless the user
 * turned it off; storage that cannot be read (privacy modes) means on.
 */
const KEY = 'cms.shrinkLargeImages';

export function getShrinkSetting(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setShrinkSetting(on: boolean): void {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    /* not remembered: the box still applies to this page */
  }
}

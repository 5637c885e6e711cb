import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Called first in a worker thread (the image and the article render
 * threads). On Linux a thread has its own nice value: lowered here, a render
 * yields the CPU to the event loop's thread whenever both want it. Best
 * effort elsewhere.
 */
export function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // not Linux, or not allowed: the thread keeps the process's priority
  }
}

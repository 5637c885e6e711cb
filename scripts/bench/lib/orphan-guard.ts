/**
 * Preloaded (`node --import`) into every server the benchmark starts, the
 * real one and the baseline alike. run.ts holds an IPC channel to each
 * child; when run.ts goes away without stopping them (killed, crashed), the
 * channel closes and the child is asked to stop the way an operator would:
 * SIGTERM, which both servers handle by closing gracefully.
 */
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));

/**
 * Signing in again in place. A screen that must not be left while a session
 * ends (the editor: its text would go) offers a sign-in dialog and registers
 * it here; lib/typed-api.ts asks it after a 401 and sends the call once more
 * when it answers true. With nothing registered the client goes to the
 * login page as before. Plain module state: the dialog and the client run in
 * the same page, and this module is one instance there.
 */
type Prompt = () => Promise<boolean>;

const state: { prompt: Prompt | null; pending: Promise<boolean> | null } = { prompt: null, pending: null };

/** Registers the dialog; the returned function unregisters it. */
export function offerReauth(prompt: Prompt): () => void {
  state.prompt = prompt;
  return () => {
    if (state.prompt === prompt) state.prompt = null;
  };
}

/**
 * Asks for a new sign-in: true once signed in again, false when declined,
 * null when no screen offers it. Calls that fail together share one dialog.
 */
export function requestReauth(): Promise<boolean | null> {
  const prompt = state.prompt;
  if (!prompt) return Promise.resolve(null);
  state.pending ??= prompt().finally(() => {
    state.pending = null;
  });
  return state.pending;
}

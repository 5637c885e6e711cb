import { component$ } from '@builder.io/qwik';

const SAVE_WORDS = {
  saved: 'All changes saved',
  pending: 'Unsaved changes',
  saving: 'Saving…',
  local: 'Kept in this browser only',
  failed: 'Not saved: kept in this browser',
} as const;

export type SaveStateName = keyof typeof SAVE_WORDS;

/** Where the text is: on the server, on its way, or only in this browser. */
export const SaveState = component$((props: { state: SaveStateName }) => (
  <span class="save-state" data-testid="save-state" data-state={props.state} role="status">
    {SAVE_WORDS[props.state]}
  </span>
));

import { component$, type Signal } from '@builder.io/qwik';
import { countWords, readingTimeMinutes } from '../../../../worker/src/core/content/reading-time';

/**
 * Words and reading time of the body, by the server's own count (the API's
 * `readingTimeMinutes`). A component of its own: it follows every keystroke,
 * and the form around it must not re-render while one types.
 */
export const WordCount = component$((props: { body: Signal<string> }) => {
  const words = countWords(props.body.value);
  const minutes = readingTimeMinutes(props.body.value);
  return (
    <p class="hint word-count" data-testid="word-count">
      {`${words} ${words === 1 ? 'word' : 'words'} · ${minutes} min read`}
    </p>
  );
});

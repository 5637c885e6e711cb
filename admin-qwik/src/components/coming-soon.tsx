import { component$ } from '@builder.io/qwik';
import { Link } from '@builder.io/qwik-city';

/** Stand-in for a screen that a later change will build. */
export const ComingSoon = component$((props: { label: string; summary: string }) => (
  <>
    <h1>{props.label}</h1>
    <p class="lede">{props.summary}</p>
    <p class="notice">This screen is not built yet.</p>
    <p>
      <Link href="/">Back to the dashboard</Link>
    </p>
  </>
));

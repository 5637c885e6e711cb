import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { ComingSoon } from '../../components/coming-soon';
import { screenByHref } from '../../lib/screens';

const screen = screenByHref('/media');

export default component$(() => <ComingSoon label={screen.label} summary={screen.summary} />);

export const head: DocumentHead = { title: screen.label };

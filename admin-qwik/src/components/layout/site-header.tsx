import { component$ } from '@builder.io/qwik';
import { Link } from '@builder.io/qwik-city';
import { PRODUCT_NAME } from '../../lib/product';
import { ColorModeToggle } from './color-mode-toggle';

export const SiteHeader = component$(() => (
  <header class="site-header">
    <Link href="/" class="brand">
      <svg class="brand-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path d="M9 10h14M9 16h14M9 22h9" stroke="var(--bg)" stroke-width="3" stroke-linecap="round" />
      </svg>
      <span>{PRODUCT_NAME}</span>
      <span class="visually-hidden"> – dashboard</span>
    </Link>
    <ColorModeToggle />
  </header>
));

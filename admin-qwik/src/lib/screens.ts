import type { JSXOutput } from '@builder.io/qwik';
import type { IconProps } from '../components/icons/icon';
import {
  IconActivity,
  IconArticles,
  IconDashboard,
  IconIntegrations,
  IconMedia,
  IconSettings,
  IconUsers,
  IconWebhooks,
} from '../components/icons/icons';
import { CATALOGS } from './catalog';
import { withoutTrailingSlashes } from './url';

export interface Screen {
  href: string;
  label: string;
  /** One line for the dashboard card. */
  summary: string;
  icon: (props: IconProps) => JSXOutput;
  /** False while the screen is still a placeholder. */
  ready: boolean;
  /** Shown to the owner only (the API refuses admins). */
  ownerOnly?: boolean;
}

/** The catalogue screens, each from its entry in lib/catalog.ts, in the entries' order. */
const CATALOG_SCREENS: readonly Screen[] = Object.values(CATALOGS).map((c) => ({
  href: c.href,
  label: c.title,
  summary: c.summary,
  icon: c.icon,
  ready: true,
}));

/** The admin's screens, in navigation order. The nav and the dashboard both read this list. */
export const SCREENS: readonly Screen[] = [
  { href: '/', label: 'Dashboard', summary: 'Overview and API health.', icon: IconDashboard, ready: true },
  {
    href: '/articles',
    label: 'Articles',
    summary: 'Write, publish and unpublish articles.',
    icon: IconArticles,
    ready: true,
  },
  ...CATALOG_SCREENS,
  { href: '/media', label: 'Media', summary: 'Image library, variants and purge.', icon: IconMedia, ready: true },
  {
    href: '/users',
    label: 'Users',
    summary: 'Accounts, roles and invitations.',
    icon: IconUsers,
    ready: true,
    ownerOnly: true,
  },
  {
    href: '/activity',
    label: 'Activity',
    summary: 'Activity log, summary and export.',
    icon: IconActivity,
    ready: true,
  },
  {
    href: '/integrations',
    label: 'Integrations',
    summary: 'API keys for other systems.',
    icon: IconIntegrations,
    ready: true,
    ownerOnly: true,
  },
  {
    href: '/webhooks',
    label: 'Webhooks',
    summary: 'Signed notices to other systems when content changes.',
    icon: IconWebhooks,
    ready: true,
    ownerOnly: true,
  },
  {
    href: '/settings',
    label: 'Settings',
    summary: 'Version of the running build and updates.',
    icon: IconSettings,
    ready: true,
  },
];

/** The screen a path belongs to (`/articles/123` → Articles). */
export function screenFor(pathname: string): Screen | undefined {
  const path = withoutTrailingSlashes(pathname) || '/';
  return SCREENS.find((s) => (s.href === '/' ? path === '/' : path === s.href || path.startsWith(`${s.href}/`)));
}

/** A screen by its path; throws at build time if the list and the routes disagree. */
export function screenByHref(href: string): Screen {
  const screen = SCREENS.find((s) => s.href === href);
  if (!screen) throw new Error(`No screen ${href} in SCREENS`);
  return screen;
}

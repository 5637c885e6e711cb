import type { JSXOutput } from '@builder.io/qwik';

export interface IconProps {
  /** Pixel size of the square; defaults to 20. */
  size?: number;
  class?: string;
}

/**
 * Inline SVG wrapper: no icon font, no CDN, nothing for the CSP to block.
 * Icons are decorative (aria-hidden); the text next to them carries the meaning.
 */
export function Icon(props: IconProps & { children: JSXOutput }) {
  const size = props.size ?? 20;
  return (
    <svg
      class={['icon', props.class]}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {props.children}
    </svg>
  );
}

import { $, component$, type QRL, useSignal } from '@builder.io/qwik';
import { IconDownload } from '../icons/icons';

export type ExportFormat = 'csv' | 'ndjson';

const ITEMS: { format: ExportFormat; label: string }[] = [
  { format: 'csv', label: 'CSV (spreadsheets)' },
  { format: 'ndjson', label: 'NDJSON (one JSON object a line)' },
];

/**
 * "Export" → a small menu of formats (menu button pattern: Enter / Space /
 * ArrowDown open it on the first item, arrows move, Escape closes and gives
 * focus back to the button).
 */
export const ExportMenu = component$((props: { onExport$: QRL<(format: ExportFormat) => unknown>; busy: boolean }) => {
  const open = useSignal(false);
  const button = useSignal<HTMLButtonElement>();
  const focusItem = $((index: number) =>
    setTimeout(() => {
      const items = document.querySelectorAll<HTMLButtonElement>('#export-menu [role="menuitem"]');
      items[(index + items.length) % items.length]?.focus();
    }, 0),
  );
  const close = $(() => {
    open.value = false;
    setTimeout(() => button.value?.focus(), 0);
  });
  return (
    <div class="menu-wrap">
      <button
        ref={button}
        type="button"
        class="button"
        id="export-button"
        aria-haspopup="menu"
        aria-expanded={open.value}
        aria-controls="export-menu"
        disabled={props.busy}
        onClick$={() => {
          open.value = !open.value;
          if (open.value) void focusItem(0);
        }}
        onKeyDown$={(e) => {
          if (e.key === 'ArrowDown') {
            open.value = true;
            void focusItem(0);
          }
        }}
      >
        <IconDownload />
        <span>{props.busy ? 'Exporting…' : 'Export'}</span>
      </button>
      {open.value && (
        <div
          id="export-menu"
          class="menu"
          role="menu"
          aria-labelledby="export-button"
          onKeyDown$={(e) => {
            const items = Array.from(document.querySelectorAll<HTMLElement>('#export-menu [role="menuitem"]'));
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape' || e.key === 'Tab') void close();
            else if (e.key === 'ArrowDown') void focusItem(at + 1);
            else if (e.key === 'ArrowUp') void focusItem(at - 1);
            else if (e.key === 'Home') void focusItem(0);
            else if (e.key === 'End') void focusItem(-1);
          }}
        >
          {ITEMS.map((item) => (
            <button
              key={item.format}
              type="button"
              role="menuitem"
              class="menu-item"
              onClick$={async () => {
                await close();
                await props.onExport$(item.format);
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
});

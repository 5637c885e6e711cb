import { $, component$, useContext, useSignal } from '@builder.io/qwik';
import { SessionContext } from '../../lib/session';
import { download, importArchive } from '../../lib/typed-api';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Export and import (owner): the whole installation's content as one
 * archive, the same on Workers and Node (docs/backups.md). Import only
 * into an installation without content; the server refuses otherwise and
 * the panel says its reason.
 */
export const BackupPanel = component$(() => {
  const session = useContext(SessionContext);
  const busy = useSignal<'export' | 'import' | null>(null);
  const error = useSignal<string | null>(null);
  const message = useSignal<string | null>(null);
  const file = useSignal<File | null>(null);
  if (session.user?.role !== 'owner') return null;

  const runExport = $(async () => {
    busy.value = 'export';
    error.value = null;
    message.value = 'Preparing the archive…';
    const res = await download('/v1/export', {} as never);
    busy.value = null;
    message.value = res.ok ? `Saved ${res.data.filename} (${Math.ceil(res.data.bytes / 1024)} KiB).` : null;
    if (!res.ok) error.value = `Export failed: ${res.message}`;
  });

  const runImport = $(async () => {
    const chosen = file.value;
    if (!chosen) return;
    busy.value = 'import';
    error.value = null;
    message.value = `Importing ${chosen.name}…`;
    const res = await importArchive(chosen);
    busy.value = null;
    if (!res.ok) {
      message.value = null;
      error.value = `Import failed: ${res.message}`;
      return;
    }
    const { rows, images, accountsWithoutPassword } = res.data.imported;
    message.value =
      `Imported ${plural(rows.articles ?? 0, 'article', 'articles')}, ${plural(images, 'image', 'images')}` +
      (accountsWithoutPassword > 0
        ? `; ${plural(accountsWithoutPassword, 'account', 'accounts')} must set a password with “Forgot password”.`
        : '.');
  });

  return (
    <section class="card" aria-labelledby="backup-heading" data-testid="backup-panel">
      <h2 id="backup-heading">Export and import</h2>
      <p class="hint">
        One archive of the articles, sites, authors, SEO data, accounts (without passwords) and images, to keep or to
        move to another installation, on Workers or Node.
      </p>
      <div class="actions">
        <button type="button" class="button" disabled={!!busy.value} onClick$={runExport}>
          {busy.value === 'export' ? 'Exporting…' : 'Export everything'}
        </button>
      </div>
      <label for="import-file">Archive to import (only into an installation without content)</label>
      <input
        id="import-file"
        type="file"
        accept=".gz,application/gzip"
        disabled={!!busy.value}
        onChange$={(_, input) => {
          file.value = input.files?.[0] ?? null;
        }}
      />
      <div class="actions">
        <ConfirmButton
          label="Import"
          question="Import this archive? Its articles, images and accounts are added to this installation."
          confirmLabel="Yes, import"
          disabled={!!busy.value || !file.value}
          onConfirm$={runImport}
        />
      </div>
      <Status message={message.value} testId="backup-status" />
      <FormError message={error.value} />
    </section>
  );
});

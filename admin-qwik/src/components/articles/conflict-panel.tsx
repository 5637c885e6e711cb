import { component$, type QRL } from '@builder.io/qwik';
import { type ArticleFields, type ConflictField, conflictLabel } from '../../lib/article-fields';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { type SeoField, seoValues, showSeoValue } from '../../lib/seo-merge';

/** One field's two versions side by side. */
export const ConflictVersions = component$(
  (props: { level: 4 | 5; labels: [string, string]; theirs: string; mine: string }) => {
    const Label = props.level === 4 ? 'h4' : 'h5';
    return (
      <div class="conflict-versions">
        <div>
          <Label>{props.labels[0]}</Label>
          <pre class="conflict-text" data-testid="theirs">
            {props.theirs}
          </pre>
        </div>
        <div>
          <Label>{props.labels[1]}</Label>
          <pre class="conflict-text" data-testid="mine">
            {props.mine}
          </pre>
        </div>
      </div>
    );
  },
);

/** The choice under both versions. */
export const ConflictChoice = component$(
  (props: { onKeepMine$: QRL<() => unknown>; onTakeTheirs$: QRL<() => unknown> }) => (
    <div class="actions">
      <button type="button" class="button button-primary" onClick$={props.onKeepMine$}>
        Keep mine
      </button>
      <button type="button" class="button" onClick$={props.onTakeTheirs$}>
        Take theirs
      </button>
    </div>
  ),
);

export interface Conflict {
  theirs: ArticleFields;
  mine: ArticleFields;
  fields: ConflictField[];
  /** 'draft': a restored local draft met a newer server version (else a save got 412). */
  source?: 'draft';
}

/**
 * Someone else saved the article while it was open here (the API answered
 * 412), or since a restored local draft was made, and changed some of the
 * same fields differently. Both versions of
 * each such field are shown; the editor keeps theirs or theirs. Fields only
 * one side changed were merged already, so nothing of either is lost.
 */
export const ConflictPanel = component$(
  (props: {
    conflict: Conflict;
    sites: SiteDto[];
    authors: AuthorDto[];
    onKeepMine$: QRL<() => unknown>;
    onTakeTheirs$: QRL<() => unknown>;
  }) => {
    const show = (name: ConflictField, f: ArticleFields): string => {
      if (name.startsWith('seo.')) return showSeoValue(f.seo ?? seoValues({}), name.slice(4) as SeoField);
      if (name === 'siteId') return props.sites.find((s) => s.id === f.siteId)?.name ?? (f.siteId || 'No site');
      if (name === 'authorIds')
        return f.authorIds.map((id) => props.authors.find((a) => a.id === id)?.name ?? id).join(', ') || 'No authors';
      if (name === 'tags') return (f.tags ?? []).map((t) => t.name).join(', ') || 'No tags';
      return String(f[name as keyof ArticleFields] ?? '') || '(empty)';
    };
    const draft = props.conflict.source === 'draft';
    return (
      <section class="card conflict" aria-labelledby="conflict-heading" data-testid="conflict" role="alert">
        <h2 id="conflict-heading">
          {draft ? 'The article changed on the server since this draft' : 'Someone else saved this article meanwhile'}
        </h2>
        <p>
          {draft
            ? 'The draft’s other changes are in the editor now, and so are the server’s. '
            : 'Their changes to other fields are in the editor now. '}
          These fields were changed on both sides: choose which version to keep. Nothing is saved until you choose.
        </p>
        {props.conflict.fields.map((name) => (
          <div key={name} class="conflict-field" data-testid={`conflict-${name}`}>
            <h3>{conflictLabel(name)}</h3>
            <ConflictVersions
              level={4}
              labels={draft ? ['On the server', 'In your draft'] : ['Their version', 'Your version']}
              theirs={show(name, props.conflict.theirs)}
              mine={show(name, props.conflict.mine)}
            />
          </div>
        ))}
        <ConflictChoice onKeepMine$={props.onKeepMine$} onTakeTheirs$={props.onTakeTheirs$} />
      </section>
    );
  },
);

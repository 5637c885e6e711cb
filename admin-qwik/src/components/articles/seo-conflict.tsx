import { component$, type QRL } from '@builder.io/qwik';
import { SEO_FIELD_LABELS, type SeoField, type SeoValues, showSeoValue } from '../../lib/seo-merge';
import { ConflictChoice, ConflictVersions } from './conflict-panel';

export interface SeoConflictState {
  theirs: SeoValues;
  mine: SeoValues;
  fields: SeoField[];
}

/**
 * The SEO panel's answer to a 412 whose fields were changed on both sides:
 * both versions of each such field, and the choice (as the body's
 * conflict-panel.tsx). Fields only one side changed were merged already.
 */
export const SeoConflict = component$(
  (props: { conflict: SeoConflictState; onKeepMine$: QRL<() => unknown>; onTakeTheirs$: QRL<() => unknown> }) => (
    <section class="conflict" aria-labelledby="seo-conflict-heading" data-testid="seo-conflict" role="alert">
      <h3 id="seo-conflict-heading">Someone else saved these SEO settings meanwhile</h3>
      <p>
        Their changes to other fields are in the form now. These fields were changed on both sides: choose which version
        to keep. Nothing is saved until you choose.
      </p>
      {props.conflict.fields.map((name) => (
        <div key={name} class="conflict-field" data-testid={`seo-conflict-${name}`}>
          <h4>{SEO_FIELD_LABELS[name]}</h4>
          <ConflictVersions
            level={5}
            labels={['Their version', 'Your version']}
            theirs={showSeoValue(props.conflict.theirs, name)}
            mine={showSeoValue(props.conflict.mine, name)}
          />
        </div>
      ))}
      <ConflictChoice onKeepMine$={props.onKeepMine$} onTakeTheirs$={props.onTakeTheirs$} />
    </section>
  ),
);

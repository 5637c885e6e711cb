import { component$, type Signal } from '@builder.io/qwik';

/** The SEO form's text fields as typed (the form itself is uncontrolled). */
export interface Draft {
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
}

/*
 * The SEO panel's live parts. What follows the typing lives in components of its own: the form itself
 * does not re-render while one types, so no field is ever reset under the cursor.
 */
export const CharCount = component$(
  (props: { id: string; draft: Signal<Draft>; field: 'metaTitle' | 'metaDescription'; max: number }) => (
    <p class="hint" id={props.id}>{`${props.draft.value[props.field].length} of ${props.max} characters`}</p>
  ),
);

export const SerpPreview = component$((props: { draft: Signal<Draft>; title: string }) => {
  const d = props.draft.value;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of text, not of form controls: a fieldset would say otherwise
    <div class="serp" aria-label="Search result preview" role="group" data-testid="serp">
      <span class="serp-title">{d.metaTitle.trim() || props.title}</span>
      {d.canonicalUrl.trim() && <span class="serp-url">{d.canonicalUrl.trim()}</span>}
      <span class="serp-desc">
        {d.metaDescription.trim() || 'No description: search engines pick text from the article.'}
      </span>
    </div>
  );
});

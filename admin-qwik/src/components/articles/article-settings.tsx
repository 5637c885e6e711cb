import { component$, type Signal } from '@builder.io/qwik';
import type { ArticleFields } from '../../lib/article-fields';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { AuthorPicker } from './author-picker';

/** The article's format, site and authors: the side panel's first card (changes are saved like the text). */
export const ArticleSettings = component$(
  (props: {
    format: Signal<ArticleFields['format']>;
    siteId: Signal<string>;
    authorIds: Signal<string[]>;
    sites: SiteDto[];
    authors: AuthorDto[];
  }) => (
    <section class="card" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Article</h2>
      <div class="field">
        <label for="article-format">Format</label>
        <select
          id="article-format"
          value={props.format.value}
          onChange$={(_, el) => (props.format.value = el.value as 'html')}
        >
          <option value="markdown">Markdown</option>
          <option value="html">HTML</option>
          <option value="plaintext">Plain text</option>
        </select>
      </div>
      <div class="field">
        <label for="article-site">Site</label>
        <select id="article-site" value={props.siteId.value} onChange$={(_, el) => (props.siteId.value = el.value)}>
          <option value="">No site</option>
          {props.sites.map((site) => (
            <option key={site.id} value={site.id}>
              {site.name}
            </option>
          ))}
          {props.siteId.value && !props.sites.some((x) => x.id === props.siteId.value) && (
            <option value={props.siteId.value}>Unknown site</option>
          )}
        </select>
      </div>
      <AuthorPicker authors={props.authors} selected={props.authorIds} />
    </section>
  ),
);

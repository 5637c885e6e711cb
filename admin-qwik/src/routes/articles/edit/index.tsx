import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { ArticleEditor } from '../../../components/articles/article-editor';

/** `/articles/edit?id=…` (the id travels in the query: the servers have no page per id). */
export default component$(() => <ArticleEditor isNew={false} />);

export const head: DocumentHead = { title: 'Edit article' };

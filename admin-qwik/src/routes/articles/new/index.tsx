import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { ArticleEditor } from '../../../components/articles/article-editor';

export default component$(() => <ArticleEditor isNew />);

export const head: DocumentHead = { title: 'New article' };

import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { CatalogScreen } from '../../components/catalog/catalog-screen';
import { CATALOGS } from '../../lib/catalog';

/** Redirects: list with paging, add, change where an old path goes or how, delete. */
export default component$(() => <CatalogScreen kind="redirect" />);

export const head: DocumentHead = { title: CATALOGS.redirect.title };

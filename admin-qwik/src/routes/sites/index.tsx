import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { CatalogScreen } from '../../components/catalog/catalog-screen';
import { CATALOGS } from '../../lib/catalog';

/** Sites: list with paging, create, edit, delete (refused while articles use one). */
export default component$(() => <CatalogScreen kind="site" />);

export const head: DocumentHead = { title: CATALOGS.site.title };

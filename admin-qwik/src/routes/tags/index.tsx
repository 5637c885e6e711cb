import { component$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { CatalogScreen } from '../../components/catalog/catalog-screen';
import { CATALOGS } from '../../lib/catalog';

/** Tags: list with paging, create, rename or change the slug, delete (the tag leaves its articles). */
export default component$(() => <CatalogScreen kind="tag" />);

export const head: DocumentHead = { title: CATALOGS.tag.title };

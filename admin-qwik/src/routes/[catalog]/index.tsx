import { component$ } from '@builder.io/qwik';
import { type DocumentHead, type StaticGenerateHandler, useLocation } from '@builder.io/qwik-city';
import { CatalogScreen } from '../../components/catalog/catalog-screen';
import { CATALOGS, type CatalogKind } from '../../lib/catalog';

/** The catalogue whose entry in lib/catalog.ts has this address (`sites` → the `site` entry, `href: '/sites'`). */
const kindAt = (segment: string | undefined): CatalogKind | undefined =>
  (Object.keys(CATALOGS) as CatalogKind[]).find((kind) => CATALOGS[kind].href === `/${segment}`);

/**
 * Every catalogue's screen (list with paging, create, edit in place, delete), one page per entry of
 * lib/catalog.ts: a new entry is a new page with no route file of its own. The key gives each
 * catalogue its own screen state when the admin moves from one to another without a page load.
 */
export default component$(() => {
  const kind = kindAt(useLocation().params.catalog)!;
  return <CatalogScreen key={kind} kind={kind} />;
});

/** The pages the static build writes: one per catalogue (any other address is the 404 page). */
export const onStaticGenerate: StaticGenerateHandler = () => ({
  params: Object.values(CATALOGS).map((def) => ({ catalog: def.href.slice(1) })),
});

export const head: DocumentHead = ({ params }) => {
  const kind = kindAt(params.catalog);
  return { title: kind ? CATALOGS[kind].title : '' };
};

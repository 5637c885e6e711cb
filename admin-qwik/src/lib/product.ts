/** Shown in the header, the dashboard and every page title. */
export const PRODUCT_NAME = 'Edge CMS';

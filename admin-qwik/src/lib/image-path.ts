/**
 * An uploaded image's path on this server. Answers carry absolute URLs (for
 * other origins); what the admin writes into a body or an SEO field stays
 * root-relative, so a change of PUBLIC_URL or domain never breaks an article
 * (the server makes these links absolute when it answers).
 */
export const imagePath = (img: { filename: string }): string => `/static/uploadedImages/${img.filename}`;

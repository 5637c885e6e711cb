// Temporary: replaced by the real Worker entry in this same change set.
export default {
  async fetch(): Promise<Response> {
    return new Response('starting', { status: 503 });
  },
} satisfies ExportedHandler;

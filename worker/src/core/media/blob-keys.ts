/** Where things live in the blob store. Keys are made here, never from client input. */
export const originalKey = (filename: string) => `originals/${filename}`;

/** `{uuid}.{ext}`: the only shape of filename the server ever makes or serves. */
export const IMAGE_FILENAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp|gif)$/;

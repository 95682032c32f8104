// Episode artwork must suit Apple Podcasts: a square from 1400 to 3000 pixels. An uploaded
// file is measured; artwork elsewhere (UploadThing, another host) is taken as it is.
import { badRequest } from '#server/http/errors.ts';
import { resolveUpload } from '#server/media/local.ts';

export const ARTWORK_RULE = 'Episode artwork must be a square image from 1400 to 3000 pixels wide';

/** Throws 400 (on the imageUrl field) when an uploaded image is not fit to be episode artwork. */
export async function assertArtwork(imageUrl: string | null | undefined): Promise<void> {
  if (!imageUrl?.startsWith('/uploads/')) return;
  const file = resolveUpload(imageUrl.slice('/uploads/'.length));
  // Loaded on first use, like the image copies (#server/media/images.ts).
  const { default: sharp } = await import('sharp');
  const meta = file
    ? await sharp(file)
        .metadata()
        .catch(() => null)
    : null;
  const { width = 0, height = 0 } = meta ?? {};
  if (width !== height || width < 1400 || width > 3000) throw badRequest(ARTWORK_RULE, [{ path: ['imageUrl'], message: ARTWORK_RULE }]);
}

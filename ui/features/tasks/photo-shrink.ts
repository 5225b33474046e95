/**
 * A task photo made fit to send. The reference backend takes a photo of at most 1 MiB (its
 * maxPhotoBytes, counted after base64 decoding) as a PNG, JPEG, WebP, GIF or HEIC data URL; a phone's
 * photo is often larger, so the app scales it down in the browser before it is sent, rather than
 * letting the server refuse it.
 */
export const PHOTO_MAX_BYTES = 1024 * 1024

/** The types the backend takes as they are; anything else (BMP, AVIF, …) is re-encoded. */
const SENT_AS_IS = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/heic'])

/** The longest side a scaled photo starts from: enough to read a screenshot, far under the limit. */
const START_SIDE = 2048

export interface PreparedPhoto {
  readonly name: string
  readonly dataUrl: string
  /** Bytes the server will count (the decoded data URL). */
  readonly bytes: number
  /** The chosen file's size. */
  readonly originalBytes: number
  /** True when the app made the photo smaller (or re-encoded it) before sending. */
  readonly scaled: boolean
}

export class PhotoUnreadable extends Error {
  constructor() {
    super('the photo could not be read')
  }
}

const readAsDataUrl = (blob: Blob): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('read failed'))
    reader.readAsDataURL(blob)
  })

const encode = (canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> =>
  new Promise((resolve) => canvas.toBlob(resolve, type, quality))

/**
 * Scales `bitmap` until its encoding fits `maxBytes`: the longest side from 2048 px down, each size
 * tried as JPEG at falling quality. JPEG because every browser encodes it (WebP not in Safari).
 */
const shrink = async (bitmap: ImageBitmap, maxBytes: number): Promise<Blob> => {
  const longest = Math.max(bitmap.width, bitmap.height)
  let scale = Math.min(1, START_SIDE / longest)
  for (let round = 0; round < 8; round++) {
    const canvas = document.createElement('canvas')
    canvas.width = Math.max(1, Math.round(bitmap.width * scale))
    canvas.height = Math.max(1, Math.round(bitmap.height * scale))
    const g = canvas.getContext('2d')
    if (!g) throw new PhotoUnreadable()
    // A transparent PNG's background becomes white, not JPEG's black.
    g.fillStyle = '#fff'
    g.fillRect(0, 0, canvas.width, canvas.height)
    g.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    for (const quality of [0.85, 0.7, 0.55]) {
      const blob = await encode(canvas, 'image/jpeg', quality)
      if (blob && blob.size <= maxBytes) return blob
    }
    scale *= 0.7
  }
  throw new PhotoUnreadable()
}

/**
 * The photo as the backend takes it: a file within the limit in a type it takes is sent as it is;
 * any other is decoded and re-encoded as a JPEG within the limit. A file the browser cannot decode
 * as an image fails with PhotoUnreadable.
 */
export const preparePhoto = async (file: File, maxBytes = PHOTO_MAX_BYTES): Promise<PreparedPhoto> => {
  if (file.size <= maxBytes && SENT_AS_IS.has(file.type)) {
    return { name: file.name, dataUrl: await readAsDataUrl(file), bytes: file.size, originalBytes: file.size, scaled: false }
  }
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    throw new PhotoUnreadable()
  }
  try {
    const blob = await shrink(bitmap, maxBytes)
    return { name: file.name, dataUrl: await readAsDataUrl(blob), bytes: blob.size, originalBytes: file.size, scaled: true }
  } finally {
    bitmap.close()
  }
}

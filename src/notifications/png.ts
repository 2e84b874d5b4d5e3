import { crc32, deflateSync } from 'node:zlib';

/** An RGB colour, 0-255 each. */
export type Rgb = readonly [number, number, number];

/** A white image to paint rectangles on, then encode as PNG: all a small chart in a mail needs, no dependency. */
export class Raster {
  private readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = Buffer.alloc(width * height * 3, 0xff);
  }

  /** Paints the rectangle from (x, y), clipped to the image; coordinates are rounded to whole pixels. */
  fill(x: number, y: number, width: number, height: number, colour: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + width));
    const y1 = Math.min(this.height, Math.round(y + height));
    for (let row = y0; row < y1; row++) {
      for (let col = x0; col < x1; col++) this.pixels.set(colour, (row * this.width + col) * 3);
    }
  }

  /** The image as a PNG file: 8-bit RGB, no interlace, every row with filter 0 (none). */
  png(): Buffer {
    const stride = this.width * 3;
    const rows = Buffer.alloc((stride + 1) * this.height);
    for (let row = 0; row < this.height; row++) this.pixels.copy(rows, row * (stride + 1) + 1, row * stride, (row + 1) * stride);
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 2, 0, 0, 0], 8);
    return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  }
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

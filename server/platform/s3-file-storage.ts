import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { checkStorageKey, type FileStorage } from './file-storage';

export interface S3StorageConfig {
  /** An S3-compatible service (MinIO, Ceph, R2, ...); undefined: AWS itself, by region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both or neither: neither takes the SDK's own chain (instance role, AWS_* variables). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** bucket in the path (http://host/bucket/key), as most S3-compatible services want, not in the host name. */
  forcePathStyle: boolean;
}

/** What the interface promises for a missing file: an error with code ENOENT (a 404, not a broken download). */
function notFound(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no stored file ${key}`), { code: 'ENOENT' });
}

const isMissing = (err: unknown) =>
  err instanceof NoSuchKey || (err instanceof S3ServiceException && (err.name === 'NotFound' || err.$metadata.httpStatusCode === 404));

async function bytesOf(data: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(data)) return data;
  const chunks: Buffer[] = [];
  for await (const chunk of data) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/**
 * Files in an S3 bucket (S3_BUCKET and the rest), so every instance reads what any instance stored. The same keys
 * as on disk (newStorageKey) become object names; downloads stream from S3 to the client.
 */
export function createS3FileStorage(config: S3StorageConfig): FileStorage {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: S3-compatible stores that predate the SDK's default CRC32 headers
    // (and the test's s3rver) refuse or mangle them, and TLS already guards the bytes in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  return {
    async put(key, data) {
      checkStorageKey(key);
      // Callers hand over buffers (an upload is read whole to check its content before it is stored): a stream is
      // read the same way, since a PUT needs its length first.
      const body = await bytesOf(data);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentLength: body.length }));
    },
    async read(key) {
      return bytesOf(await this.open(key));
    },
    async open(key) {
      checkStorageKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!(answer.Body instanceof Readable)) throw new Error('S3 answered without a body');
        return answer.Body;
      } catch (err) {
        if (isMissing(err)) throw notFound(key);
        throw err;
      }
    },
    async remove(key) {
      checkStorageKey(key);
      // S3 answers a delete of a missing object with success, as the interface wants.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

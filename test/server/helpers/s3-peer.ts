import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A fake S3 (s3rver) on a loopback port with a temporary directory and one bucket, for the S3 file storage. */
export interface S3Peer {
  endpoint: string;
  bucket: string;
  /** The S3_* variables that point the app at it. */
  env: Record<string, string>;
  /** The object names in the bucket (from s3rver's own directory). */
  objects(): Promise<string[]>;
  stop(): Promise<void>;
}

// s3rver's own keys: it checks signatures against them.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export async function startS3Peer(bucket = 'tanya-files'): Promise<S3Peer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'tanya-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async objects() {
      const root = path.join(directory, bucket);
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      // s3rver keeps each object as <name>._S3rver_object beside its metadata files.
      return entries
        .filter((e) => e.isFile() && e.name.endsWith('._S3rver_object'))
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)).replace(/\._S3rver_object$/, ''))
        .sort();
    },
    async stop() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

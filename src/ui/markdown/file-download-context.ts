import { createContext, useContext } from 'react';

/**
 * How a document card in a message downloads its file. The server's document URLs need the bearer token, which a
 * plain link cannot send, so a page that can reach the API client (src/ui cannot import it) provides this: it
 * downloads through the authenticated client and saves the file under `name` (or the server's name). Without a
 * provider the card stays a plain link.
 */
export type FileDownload = (url: string, name: string) => Promise<void>;

export const FileDownloadContext = createContext<FileDownload | null>(null);

export const useFileDownload = () => useContext(FileDownloadContext);

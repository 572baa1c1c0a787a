import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAiSdk } from '../../server/llm/openai-sdk';

// A bare relay that asks the model through the OpenAI SDK as the server builds it (server/llm/openai-sdk.ts: undici
// fetch, kept-alive connections) and passes the first text delta on: nothing else. Run in a process of its own by
// http-floor.ts (measureSdkRelayFloor); `node --import tsx test/bench/sdk-relay.ts <model base URL>` prints the
// port it listens on. Beside the bare node:http relay it shows what the SDK itself adds to a first token here.

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: sdk-relay.ts <model base URL>');
const client = createOpenAiSdk({ baseUrl, apiKey: 'bench' }, { maxRetries: 0, timeoutMs: 60_000 });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', async () => {
    try {
      const stream = await client.chat.completions.create({ model: 'bench-model', messages: [{ role: 'user', content: 'hello' }], stream: true });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for await (const chunk of stream) {
        const text = chunk.choices?.[0]?.delta?.content;
        if (text) res.write(`data: ${JSON.stringify(text)}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));

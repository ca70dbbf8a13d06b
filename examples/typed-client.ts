import { createTrunklineClient } from '../clients/typescript';

const trunkline = createTrunklineClient({ baseUrl: process.env.TL!, apiKey: process.env.KEY! });
void trunkline.GET('/trunks', { params: { query: { limit: 5 } } }).then(({ data, error }) => {
  for (const trunk of data?.trunks ?? []) console.log(trunk.id, trunk.name, trunk.status);
  if (error) console.error(error.error.code, error.error.message);
});

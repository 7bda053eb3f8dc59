// node-opcua's server on reverse connect (Part 6, 7.1.3): dials opc.tcp://127.0.0.1:<clientPort> and sends a
// ReverseHello, re-dialling after each connection. Prints READY <applicationUri> <endpointUrl> once started; stops
// when its standard input closes.
import { OPCUAServer } from "node-opcua";
import os from "node:os";

const [clientPort] = process.argv.slice(2);
const server = new OPCUAServer({
    port: 0,
    hostname: "127.0.0.1",
    serverInfo: { applicationUri: `urn:${os.hostname()}:node-opcua:reverse-peer` },
    reverseConnect: {
        connections: [{ endpointUrl: `opc.tcp://127.0.0.1:${clientPort}` }],
        reconnectDelay: 200,
        maxReconnectDelay: 1000,
    },
});
await server.start();
console.log(`READY ${server.serverInfo.applicationUri} ${server.getEndpointUrl()}`);
process.stdin.resume();
process.stdin.on("end", async () => {
    await server.shutdown(0);
    process.exit(0);
});

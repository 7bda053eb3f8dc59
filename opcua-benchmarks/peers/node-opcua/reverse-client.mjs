// node-opcua's client on reverse connect (Part 6, 7.1.3): listens on 127.0.0.1:<port>, waits for the server
// <serverUri> to dial in, opens a session over that connection and reads ServerStatus.State and the
// NamespaceArray. Prints LISTENING once the port is open, then one line RESULT <json>; exit code 0 on success.
import { OPCUAClient, ClientReverseConnect, MessageSecurityMode, SecurityPolicy, AttributeIds } from "node-opcua";

const [port, serverUri] = process.argv.slice(2);
const listener = new ClientReverseConnect({ connectionUrl: `opc.tcp://127.0.0.1:${port}`, acceptTimeout: 20000 });
await listener.start();
console.log(`LISTENING ${listener.listeningPort}`);
const client = OPCUAClient.create({
    endpointMustExist: false,
    securityMode: MessageSecurityMode.None,
    securityPolicy: SecurityPolicy.None,
    connectionStrategy: { maxRetry: 0 },
});
try {
    await client.connectReverse(listener, { serverUri });
    const session = await client.createSession();
    const values = await session.read([
        { nodeId: "ns=0;i=2259", attributeId: AttributeIds.Value },
        { nodeId: "ns=0;i=2255", attributeId: AttributeIds.Value },
    ]);
    console.log("RESULT " + JSON.stringify({
        state: values[0].value.value,
        namespaces: values[1].value.value,
        endpointUrl: client.endpointUrl,
    }));
    await session.close();
    await client.disconnect();
    await listener.stop();
    process.exit(0);
} catch (e) {
    console.log("FAILED " + e.message);
    process.exit(1);
}

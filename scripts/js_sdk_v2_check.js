#!/usr/bin/env node
// Common SQS scenarios through the AWS SDK for JavaScript v2 in the Query protocol.
//
// aws-sdk-js v2 releases before about 2.149x speak the Query protocol to SQS (`Action=...` form
// bodies, XML answers) and post each call to its queue's URL; this checks that such a client works
// against a server as it does against SQS. Usage (NODE_PATH or a node_modules next to the script
// must hold aws-sdk):
//
//     node scripts/js_sdk_v2_check.js http://127.0.0.1:9324
//
// It prints one line per scenario and exits non-zero at the first result that differs from what SQS
// documents, or at the first request that is not of the Query protocol on the wire.

'use strict';

const crypto = require('crypto');
const dns = require('dns');
const http = require('http');
const AWS = require('aws-sdk');

// The SDK's notice about its maintenance mode is not a result.
require('aws-sdk/lib/maintenance_mode_message').suppress = true;

const MISSING_QUEUE = 'AWS.SimpleQueueService.NonExistentQueue';

function fail(what) {
  throw new Error(what);
}

function check(condition, what) {
  if (!condition) fail(what);
}

// JSON with the keys of every object in order: maps compare equal whatever order they came in.
function canonical(value) {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v,
  );
}

function equal(actual, expected, what) {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) fail(`${what}: got ${a}, expected ${e}`);
}

// A DNS lookup that answers every name with the endpoint's address.
function toEndpoint(endpoint) {
  const host = new URL(endpoint).hostname.replace(/^\[(.*)\]$/, '$1');
  return (hostname, options, callback) => {
    dns.lookup(host, options, callback);
  };
}

// Every request is checked on the wire: a form body with Action= and no X-Amz-Target.
const wire = { checked: 0 };

function client(endpoint) {
  const sqs = new AWS.SQS({
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'local',
    secretAccessKey: 'local',
    maxRetries: 2,
    computeChecksums: true,
    // The SDK posts to each queue's own URL. Its host may be a name this machine resolves elsewhere
    // (LocalStack names itself `localhost` but may listen on ::1 only), so every connection goes to
    // the endpoint's address, as `curl --connect-to` would; the Host header stays the queue's.
    httpOptions: { agent: new http.Agent({ keepAlive: true, lookup: toEndpoint(endpoint) }) },
  });
  check(sqs.api.protocol === 'query', `aws-sdk ${AWS.VERSION} speaks ${sqs.api.protocol}, not query`);
  sqs.customizeRequests((request) => {
    request.on('afterBuild', (req) => {
      const http = req.httpRequest;
      const body = String(http.body || '');
      if (http.headers['X-Amz-Target'] || !body.startsWith('Action=')) {
        fail(`${req.operation} was not sent in the Query protocol: ${body.slice(0, 120)}`);
      }
      wire.checked += 1;
    });
  });
  return sqs;
}

// The MD5 of message attributes as SQS computes it: names in order, each as length-prefixed name,
// data type, transport type (1 string, 2 binary) and length-prefixed value.
function md5OfAttributes(attributes) {
  const hash = crypto.createHash('md5');
  const lengthPrefixed = (bytes) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    hash.update(length);
    hash.update(bytes);
  };
  for (const name of Object.keys(attributes).sort()) {
    const value = attributes[name];
    lengthPrefixed(Buffer.from(name, 'utf8'));
    lengthPrefixed(Buffer.from(value.DataType, 'utf8'));
    if (value.BinaryValue !== undefined) {
      hash.update(Buffer.from([2]));
      lengthPrefixed(Buffer.from(value.BinaryValue));
    } else {
      hash.update(Buffer.from([1]));
      lengthPrefixed(Buffer.from(value.StringValue, 'utf8'));
    }
  }
  return hash.digest('hex');
}

async function errorCode(promise) {
  try {
    await promise;
  } catch (err) {
    return err.code;
  }
  return fail('a call succeeded where an error was expected');
}

async function receiveAll(sqs, params, count) {
  const received = [];
  const deadline = Date.now() + 10000;
  while (received.length < count && Date.now() < deadline) {
    const got = await sqs.receiveMessage({ WaitTimeSeconds: 1, ...params }).promise();
    received.push(...(got.Messages || []));
  }
  equal(received.length, count, 'messages received');
  return received;
}

async function main(endpoint) {
  const sqs = client(endpoint);
  const run = crypto.randomBytes(4).toString('hex');
  let scenarios = 0;
  const ok = (what) => {
    scenarios += 1;
    console.log(`ok  ${what}`);
  };

  // Queues with attributes and tags; their attributes read back.
  const { QueueUrl: url } = await sqs
    .createQueue({
      QueueName: `js-${run}`,
      Attributes: { VisibilityTimeout: '45', MaximumMessageSize: '2048' },
      tags: { team: 'payments' },
    })
    .promise();
  const { QueueUrl: fifoUrl } = await sqs
    .createQueue({ QueueName: `js-${run}.fifo`, Attributes: { FifoQueue: 'true' } })
    .promise();
  equal((await sqs.getQueueUrl({ QueueName: `js-${run}` }).promise()).QueueUrl, url, 'GetQueueUrl');
  const created = await sqs
    .getQueueAttributes({ QueueUrl: url, AttributeNames: ['VisibilityTimeout', 'MaximumMessageSize'] })
    .promise();
  equal(created.Attributes, { MaximumMessageSize: '2048', VisibilityTimeout: '45' }, 'attributes at creation');
  equal((await sqs.listQueueTags({ QueueUrl: url }).promise()).Tags, { team: 'payments' }, 'tags at creation');
  const listed = await sqs.listQueues({ QueueNamePrefix: `js-${run}` }).promise();
  equal([...listed.QueueUrls].sort(), [url, fifoUrl].sort(), 'ListQueues by prefix');
  ok('create queues with attributes and tags, find and list them');

  // Queue attributes changed and read back, all of them.
  await sqs.setQueueAttributes({ QueueUrl: url, Attributes: { DelaySeconds: '0', ReceiveMessageWaitTimeSeconds: '1' } }).promise();
  const all = (await sqs.getQueueAttributes({ QueueUrl: url, AttributeNames: ['All'] }).promise()).Attributes;
  equal([all.ReceiveMessageWaitTimeSeconds, all.VisibilityTimeout], ['1', '45'], 'attributes after SetQueueAttributes');
  check(all.QueueArn && all.QueueArn.endsWith(`:js-${run}`), `QueueArn ${all.QueueArn}`);
  ok('set and get queue attributes');

  // Tags added, removed and listed.
  await sqs.tagQueue({ QueueUrl: url, Tags: { env: 'dev', owner: 'js' } }).promise();
  await sqs.untagQueue({ QueueUrl: url, TagKeys: ['owner'] }).promise();
  equal((await sqs.listQueueTags({ QueueUrl: url }).promise()).Tags, { env: 'dev', team: 'payments' }, 'ListQueueTags');
  ok('tag, untag and list tags');

  // A body with a carriage return, markup and non-ASCII text, and attributes of every type: the
  // SDK checks the body's MD5 itself; the attributes' MD5 is checked here.
  const body = 'héllo\r\n<b>&amp;</b> ✓';
  const attributes = {
    kind: { DataType: 'String', StringValue: 'greeting' },
    count: { DataType: 'Number', StringValue: '42' },
    raw: { DataType: 'Binary', BinaryValue: Buffer.from([0, 1, 255]) },
    'trace.id': { DataType: 'String.custom', StringValue: 'a<b&c' },
  };
  const sent = await sqs.sendMessage({ QueueUrl: url, MessageBody: body, MessageAttributes: attributes }).promise();
  equal(sent.MD5OfMessageAttributes, md5OfAttributes(attributes), 'MD5OfMessageAttributes of SendMessage');
  ok('send with message attributes (MD5s checked)');

  const batch = await sqs
    .sendMessageBatch({
      QueueUrl: url,
      Entries: [
        { Id: 'a', MessageBody: 'one' },
        { Id: 'b', MessageBody: 'two', DelaySeconds: 0 },
        { Id: 'c', MessageBody: 'three', MessageAttributes: { n: { DataType: 'Number', StringValue: '3' } } },
      ],
    })
    .promise();
  equal(batch.Successful.map((e) => e.Id).sort(), ['a', 'b', 'c'], 'SendMessageBatch successful ids');
  equal(batch.Failed, [], 'SendMessageBatch failures');
  const third = batch.Successful.find((e) => e.Id === 'c');
  equal(third.MD5OfMessageAttributes, md5OfAttributes({ n: { DataType: 'Number', StringValue: '3' } }), 'batch entry attribute MD5');
  ok('send batch (MD5s checked)');

  // Receive with system and message attributes.
  const received = await receiveAll(
    sqs,
    { QueueUrl: url, MaxNumberOfMessages: 10, AttributeNames: ['All'], MessageAttributeNames: ['All'] },
    4,
  );
  const first = received.find((m) => m.Body === body);
  check(first, 'the first message came back with its body intact');
  equal(first.MD5OfMessageAttributes, sent.MD5OfMessageAttributes, 'MD5OfMessageAttributes of ReceiveMessage');
  const kind = first.MessageAttributes.kind;
  equal([kind.DataType, kind.StringValue], ['String', 'greeting'], 'a String attribute');
  equal([first.MessageAttributes.count.DataType, first.MessageAttributes.count.StringValue], ['Number', '42'], 'a Number attribute');
  equal(first.MessageAttributes['trace.id'].StringValue, 'a<b&c', 'an escaped attribute');
  check(Buffer.isBuffer(first.MessageAttributes.raw.BinaryValue), 'a Binary attribute is a Buffer');
  equal([...first.MessageAttributes.raw.BinaryValue], [0, 1, 255], 'a Binary attribute');
  equal(first.Attributes.ApproximateReceiveCount, '1', 'ApproximateReceiveCount');
  check(/^\d{13}$/.test(first.Attributes.SentTimestamp), `SentTimestamp ${first.Attributes.SentTimestamp}`);
  const some = await sqs.sendMessage({ QueueUrl: url, MessageBody: 'picky', MessageAttributes: attributes }).promise();
  const [picked] = await receiveAll(sqs, { QueueUrl: url, MessageAttributeNames: ['kind'], AttributeNames: ['SenderId'] }, 1);
  equal([Object.keys(picked.MessageAttributes), Object.keys(picked.Attributes)], [['kind'], ['SenderId']], 'only the attributes asked for');
  check(picked.MD5OfMessageAttributes !== some.MD5OfMessageAttributes, 'a subset has its own attribute MD5');
  equal(picked.MD5OfMessageAttributes, md5OfAttributes({ kind: attributes.kind }), 'MD5 of the selected attributes');
  received.push(picked);
  ok('receive with system and message attributes');

  // Visibility changed one at a time and in a batch; a bad handle fails alone.
  await sqs.changeMessageVisibility({ QueueUrl: url, ReceiptHandle: first.ReceiptHandle, VisibilityTimeout: 100 }).promise();
  const others = received.filter((m) => m !== first);
  const changed = await sqs
    .changeMessageVisibilityBatch({
      QueueUrl: url,
      Entries: others.map((m, i) => ({ Id: `v${i}`, ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0 }))
        .concat([{ Id: 'bogus', ReceiptHandle: 'not-a-handle', VisibilityTimeout: 0 }]),
    })
    .promise();
  equal([changed.Successful.length, changed.Failed.map((e) => [e.Id, e.Code])], [others.length, [['bogus', 'ReceiptHandleIsInvalid']]], 'ChangeMessageVisibilityBatch');
  const again = await receiveAll(sqs, { QueueUrl: url, MaxNumberOfMessages: 10, AttributeNames: ['ApproximateReceiveCount'] }, others.length);
  check(again.every((m) => m.Attributes.ApproximateReceiveCount === '2'), 'messages made visible were received again');
  ok('change visibility, single and batch');

  // Deletes, single and batch; the queue is then empty.
  await sqs.deleteMessage({ QueueUrl: url, ReceiptHandle: first.ReceiptHandle }).promise();
  const deleted = await sqs
    .deleteMessageBatch({ QueueUrl: url, Entries: again.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })) })
    .promise();
  equal([deleted.Successful.length, deleted.Failed], [again.length, []], 'DeleteMessageBatch');
  const depth = await sqs
    .getQueueAttributes({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] })
    .promise();
  equal(depth.Attributes, { ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' }, 'depth after deletes');
  ok('delete, single and batch');

  // FIFO: a deduplication id deduplicates, groups keep their order, and the system attributes name them.
  const fifoSends = [
    ['g1', 'd1', 'g1-first'],
    ['g1', 'd1', 'g1-duplicate'],
    ['g2', 'd2', 'g2-first'],
    ['g1', 'd3', 'g1-second'],
  ];
  for (const [group, dedup, text] of fifoSends) {
    const out = await sqs
      .sendMessage({ QueueUrl: fifoUrl, MessageBody: text, MessageGroupId: group, MessageDeduplicationId: dedup })
      .promise();
    check(/^\d+$/.test(out.SequenceNumber), `SequenceNumber ${out.SequenceNumber}`);
  }
  const fifoBatch = await sqs
    .sendMessageBatch({ QueueUrl: fifoUrl, Entries: [{ Id: 'x', MessageBody: 'g2-second', MessageGroupId: 'g2', MessageDeduplicationId: 'd4' }] })
    .promise();
  equal(fifoBatch.Successful.length, 1, 'FIFO SendMessageBatch');
  const fifo = await receiveAll(sqs, { QueueUrl: fifoUrl, MaxNumberOfMessages: 10, AttributeNames: ['All'] }, 4);
  const bodies = (group) => fifo.filter((m) => m.Attributes.MessageGroupId === group).map((m) => m.Body);
  equal([bodies('g1'), bodies('g2')], [['g1-first', 'g1-second'], ['g2-first', 'g2-second']], 'FIFO order per group');
  equal(fifo.map((m) => m.Attributes.MessageDeduplicationId).sort(), ['d1', 'd2', 'd3', 'd4'], 'MessageDeduplicationId');
  equal(await errorCode(sqs.sendMessage({ QueueUrl: fifoUrl, MessageBody: 'no group' }).promise()), 'MissingParameter', 'FIFO send without a group id');
  ok('FIFO with group and deduplication ids');

  // Errors by code: a missing queue, a purge too soon, a deleted queue.
  equal(await errorCode(sqs.getQueueUrl({ QueueName: `js-${run}-missing` }).promise()), MISSING_QUEUE, 'GetQueueUrl of a missing queue');
  const missingUrl = url.replace(/js-[0-9a-f]+$/, `js-${run}-nope`);
  equal(await errorCode(sqs.sendMessage({ QueueUrl: missingUrl, MessageBody: 'x' }).promise()), MISSING_QUEUE, 'SendMessage to a missing queue');
  await sqs.purgeQueue({ QueueUrl: fifoUrl }).promise();
  equal(await errorCode(sqs.purgeQueue({ QueueUrl: fifoUrl }).promise()), 'AWS.SimpleQueueService.PurgeQueueInProgress', 'a second purge within 60 s');
  for (const queue of [url, fifoUrl]) await sqs.deleteQueue({ QueueUrl: queue }).promise();
  equal(await errorCode(sqs.getQueueAttributes({ QueueUrl: url, AttributeNames: ['All'] }).promise()), MISSING_QUEUE, 'a deleted queue');
  ok('error codes: missing queue, purge in progress, deleted queue');

  console.log(`aws-sdk ${AWS.VERSION} (query protocol, ${wire.checked} requests checked on the wire): ${scenarios} scenarios ok against ${endpoint}`);
}

const args = process.argv.slice(2);
if (args.length !== 1) {
  console.error('usage: js_sdk_v2_check.js ENDPOINT');
  process.exit(2);
}
main(args[0]).catch((err) => {
  console.error(`FAILED: ${err.code ? `${err.code}: ` : ''}${err.message}`);
  process.exit(1);
});

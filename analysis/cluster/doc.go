// Package cluster runs analysis chunks on a NATS JetStream cluster: the
// same chunks (analysis.Chunk), the same engines and settings, and so the
// same results as the in-process pool, spread over as many machines as run
// a Worker.
//
// The design, in JetStream terms:
//
//   - Stream OUTPOST_WORK (work-queue retention, file storage) holds the
//     chunks waiting for a worker, one message per chunk on subject
//     outpost.work.JOB.INDEX, published with a message id so a resubmitted
//     chunk is stored once. Workers share one durable pull consumer
//     ("workers") with explicit acks: a chunk is removed when a worker acks
//     it after publishing its result; a worker that dies leaves it
//     unacknowledged and JetStream redelivers it after the ack wait. A
//     worker busy with a long chunk keeps it with InProgress heartbeats.
//   - Stream OUTPOST_RESULTS (limits retention, kept ResultsMaxAge) holds
//     the results on outpost.results.JOB.INDEX.IDENTITY, IDENTITY the
//     publishing worker's public nkey (its permissions allow no other).
//     Each submission is a new random job and each chunk carries its own
//     random nonce: the submitter reads its job's results with an ordered
//     consumer and takes a result only with its chunk's nonce and outcomes
//     that pass verifyOutcomes (legal moves, bounded scores); anything
//     else is dropped and logged. A second result for a chunk (a
//     redelivered chunk whose first worker was only slow) is ignored.
//   - Key-value buckets outpost_workers (worker heartbeats, with a TTL) and
//     outpost_jobs (job sizes) feed Status.
//
// No command crosses the wire: a chunk names an engine of Engines() with
// bounded settings, which each worker resolves on its own machine; a
// worker decodes a chunk strictly and runs every position through the one
// position check (analysis/replay) before an engine sees it, and answers a
// chunk it refuses as failed with the reason, once, terminating it
// (chunk.go).
//
// Serve embeds a NATS server with JetStream, alone or as a node of a
// three-node cluster (R3 streams); any NATS cluster with JetStream works
// instead. With an Authorization (InitAuth) only its nkey identities
// connect, each with its role's NATS permissions (admin, client, worker),
// and the server creates the streams itself once its cluster has formed
// (a meta leader and as many peers as replicas; formation.go), answering
// formation requests meanwhile so workers and clients wait; with a
// certificate every connection is TLS.
package cluster

/** A job never starts before its delivery's acknowledgement (👀) is out, and a duplicate is not acknowledged. */
import { Acknowledgements } from "../../src/runner/acknowledgements.js";
import { MemoryJobQueue } from "../../src/jobs/memory-queue.js";

test("the job waits for the acknowledgement even when the queue starts it at once", async () => {
  const acks = new Acknowledgements();
  const queue = new MemoryJobQueue();
  const events: string[] = [];
  queue.process(
    async (job) => {
      await acks.acknowledged(job.id);
      events.push(`run ${job.id}`);
    },
    { concurrency: 1 },
  );
  const slowAck = async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    events.push("ack");
  };
  const submit = () => queue.submit({ id: "d1", key: "pr#1", payload: {} });
  const [first, again] = await Promise.all([acks.intake("d1", submit, slowAck), acks.intake("d1", submit, slowAck)]);
  await queue.idle();
  expect({ first, again, events }).toEqual({ first: true, again: false, events: ["ack", "run d1"] });
});

test("a job whose delivery has no acknowledgement in flight runs at once", async () => {
  const acks = new Acknowledgements();
  await expect(acks.acknowledged("unknown")).resolves.toBeUndefined();
});

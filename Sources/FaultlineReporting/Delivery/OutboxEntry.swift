/// One envelope in the outbox, as the uploader sends it: a record of its ``DurableQueue``.
typealias OutboxEntry = DurableQueue.Entry

import FaultlineTriage
import Testing

/// The times `--since` and `--until` take, in every form their help names and the tables print.
@Suite struct TimeExpressionTests {
    @Test func everyAbsoluteFormOfOneMinuteIsThatMinute() {
        let minute = TimeExpression.seconds("2026-11-23T14:00:00Z", now: 0)
        #expect(minute == 1_795_442_400)
        for form in [
            "2026-11-23T14:00Z", "2026-11-23T14:00", "2026-11-23 14:00", "2026-11-23 14:00:00", "2026-11-23T14:00:00",
            "2026-11-23T23:00+09:00", "2026-11-23T23:00:00+09:00",
        ] {
            #expect(TimeExpression.seconds(form, now: 0) == minute, "\(form)")
        }
        #expect(TimeExpression.seconds("2026-11-23", now: 0) == 1_795_392_000)
    }

    @Test func whatIsNotATimeIsNone() {
        for text in ["2026-11-23T14", "2026-11-23 14:0", "2026-11-23X14:00Z", "14:00", "2026-13-01 00:00", "yesterday"]
        {
            #expect(TimeExpression.seconds(text, now: 0) == nil, "\(text)")
        }
    }
}

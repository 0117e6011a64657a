// The free-form values of an event are the record layer's JSON values, which its reader builds and its writer writes:
// an app names them through this module alone.
@_exported import enum FaultlineRecords.JSONValue

extension BoletoErrorCode {
    /// Seed 000's whole `ErrorCode` enum, row by row in the order of the post, with its section comments.
    package static let all: [BoletoErrorCode] = [
        // Method Not Allowed Error
        BoletoErrorCode(name: "METHOD_NOT_ALLOWED", code: 40500, httpStatus: 405, message: "지원하지 않는 HTTP 메소드입니다."),
        // Not Found Error
        BoletoErrorCode(name: "NOT_FOUND_END_POINT", code: 40400, httpStatus: 404, message: "존재하지 않는 API 엔드포인트입니다."),
        BoletoErrorCode(name: "NOT_FOUND_RESOURCE", code: 40400, httpStatus: 404, message: "해당 리소스가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_LOGIN_USER", code: 40401, httpStatus: 404, message: "로그인한 사용자가 존재하지 않습니다."),
        BoletoErrorCode(
            name: "NOT_FOUND_AUTHORIZATION_HEADER", code: 40401, httpStatus: 404,
            message: "Authorization 헤더가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_USER", code: 40401, httpStatus: 404, message: "해당 사용자가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_TRAVEL", code: 40401, httpStatus: 404, message: "해당 여행이 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_FRIEND_CODE", code: 40401, httpStatus: 404, message: "해당 친구 코드가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_MEMORY", code: 40401, httpStatus: 404, message: "해당 메모리가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_SYS_FRAME", code: 40490, httpStatus: 404, message: "해당 시스템 프레임이 존재하지 않습니다,"),
        BoletoErrorCode(name: "NOT_FOUND_SYS_STICKER", code: 40091, httpStatus: 404, message: "해당 시스템 스티커가 존재하지 않습니다."),
        BoletoErrorCode(name: "NOT_FOUND_TICKET", code: 40492, httpStatus: 404, message: "사용 가능한 티켓이 존재하지 않습니다."),
        // Invalid Argument Error
        BoletoErrorCode(
            name: "MISSING_REQUEST_PARAMETER", code: 40000, httpStatus: 400, message: "필수 요청 파라미터가 누락되었습니다."),
        BoletoErrorCode(name: "INVALID_ARGUMENT", code: 40001, httpStatus: 400, message: "요청에 유효하지 않은 인자입니다."),
        BoletoErrorCode(
            name: "INVALID_PARAMETER_FORMAT", code: 40002, httpStatus: 400, message: "요청에 유효하지 않은 인자 형식입니다."),
        BoletoErrorCode(name: "INVALID_HEADER_ERROR", code: 40003, httpStatus: 400, message: "유효하지 않은 헤더입니다."),
        BoletoErrorCode(name: "MISSING_REQUEST_HEADER", code: 40004, httpStatus: 400, message: "필수 요청 헤더가 누락되었습니다."),
        BoletoErrorCode(name: "BAD_REQUEST_PARAMETER", code: 40005, httpStatus: 400, message: "잘못된 요청 파라미터입니다."),
        BoletoErrorCode(name: "INVALID_APPLE_TOKEN", code: 40006, httpStatus: 400, message: "유효하지 않는 Apple Token입니다."),
        BoletoErrorCode(name: "BAD_REQUEST_JSON", code: 40007, httpStatus: 400, message: "잘못된 JSON 형식입니다."),
        BoletoErrorCode(
            name: "SEARCH_SHORT_LENGTH_ERROR", code: 40008, httpStatus: 400, message: "검색어는 2글자 이상이어야 합니다."),
        BoletoErrorCode(name: "INVALID_PROVIDER", code: 40009, httpStatus: 400, message: "유효하지 않은 Provider입니다."),
        BoletoErrorCode(name: "EXPIRED_FRIEND_CODE", code: 40010, httpStatus: 400, message: "만료된 친구 코드입니다."),
        BoletoErrorCode(name: "USED_FRIEND_CODE", code: 40011, httpStatus: 400, message: "이미 사용된 친구 코드입니다."),
        BoletoErrorCode(name: "SELF_FRIEND_CODE", code: 40012, httpStatus: 400, message: "자신의 친구 코드는 사용할 수 없습니다."),
        BoletoErrorCode(name: "TRAVEL_OVERLAP", code: 40013, httpStatus: 400, message: "여행 일정이 중복됩니다."),
        BoletoErrorCode(name: "ALREADY_ACCEPTED_TRAVEL", code: 40014, httpStatus: 400, message: "이미 수락한 여행입니다."),
        BoletoErrorCode(name: "EVENT_EXPIRED", code: 40015, httpStatus: 400, message: "만료된 이벤트입니다."),
        // Access Denied Error
        BoletoErrorCode(name: "ACCESS_DENIED", code: 40300, httpStatus: 403, message: "접근 권한이 없습니다."),
        BoletoErrorCode(name: "NOT_MATCH_AUTH_CODE", code: 40301, httpStatus: 403, message: "인증 코드가 일치하지 않습니다."),
        BoletoErrorCode(name: "NOT_MATCH_USER", code: 40302, httpStatus: 403, message: "해당 사용자가 일치하지 않습니다."),
        BoletoErrorCode(name: "SIGN_OUT_USER", code: 40303, httpStatus: 403, message: "탈퇴한 사용자는 24시간 이내 가입할 수 없습니다."),
        BoletoErrorCode(name: "TRAVEL_ALREADY_LOCKED", code: 40304, httpStatus: 403, message: "이미 잠긴 여행입니다."),
        BoletoErrorCode(name: "TRAVEL_ALREADY_EDITING", code: 40305, httpStatus: 403, message: "이미 편집 중인 여행입니다."),
        // Conflict Error
        BoletoErrorCode(name: "ALREADY_COLLECTED_FRAME", code: 40901, httpStatus: 409, message: "이미 수집한 프레임 입니다."),
        BoletoErrorCode(name: "ALREADY_COLLECTED_STICKER", code: 40902, httpStatus: 409, message: "이미 수집한 스티커 입니다."),
        BoletoErrorCode(
            name: "DUPLICATED_SYS_STICKER_CODE", code: 40903, httpStatus: 409, message: "중복된 시스템 스티커 코드입니다."),
        BoletoErrorCode(name: "DUPLICATED_SYS_FRAME_CODE", code: 40903, httpStatus: 409, message: "중복된 시스템 프레임 코드입니다."),
        // Unauthorized Error
        BoletoErrorCode(name: "FAILURE_LOGIN", code: 40100, httpStatus: 401, message: "잘못된 아이디 또는 비밀번호입니다."),
        BoletoErrorCode(name: "EXPIRED_TOKEN_ERROR", code: 40101, httpStatus: 401, message: "만료된 토큰입니다."),
        BoletoErrorCode(name: "INVALID_TOKEN_ERROR", code: 40102, httpStatus: 401, message: "유효하지 않은 토큰입니다."),
        BoletoErrorCode(name: "TOKEN_MALFORMED_ERROR", code: 40103, httpStatus: 401, message: "토큰이 올바르지 않습니다."),
        BoletoErrorCode(name: "TOKEN_TYPE_ERROR", code: 40104, httpStatus: 401, message: "토큰 타입이 일치하지 않거나 비어있습니다."),
        BoletoErrorCode(name: "TOKEN_UNSUPPORTED_ERROR", code: 40105, httpStatus: 401, message: "지원하지않는 토큰입니다."),
        BoletoErrorCode(name: "TOKEN_GENERATION_ERROR", code: 40106, httpStatus: 401, message: "토큰 생성에 실패하였습니다."),
        BoletoErrorCode(name: "TOKEN_UNKNOWN_ERROR", code: 40107, httpStatus: 401, message: "알 수 없는 토큰입니다."),
        // Internal Server Error
        BoletoErrorCode(name: "INTERNAL_SERVER_ERROR", code: 50000, httpStatus: 500, message: "서버 내부 에러입니다."),
        BoletoErrorCode(name: "UPLOAD_FILE_ERROR", code: 50001, httpStatus: 500, message: "파일 업로드에 실패하였습니다."),
    ]
}

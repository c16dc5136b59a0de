package io.github.flashstock.support.web;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat answers some requests itself, before any servlet runs: a path it will not decode (an encoded slash, a NUL),
 * a malformed request line. Its stock valve writes an HTML page; this one writes the same problem document the
 * services answer with everywhere else, with no server details, so a client only ever sees problem+json.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"" + ProblemDetails.TYPE_PREFIX + ProblemDetails.typeForStatus(status)
                        + "\",\"title\":\"" + ProblemDetails.titleForStatus(status) + "\",\"status\":" + status
                        + ",\"detail\":\"" + (status < 500
                        ? "the server refused the request before the application saw it (for example a path it"
                                + " cannot decode)"
                        : "the server could not handle the request") + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the response committed: nothing more to say
        }
    }
}

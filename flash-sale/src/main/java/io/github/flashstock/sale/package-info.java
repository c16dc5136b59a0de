/** The end-to-end flash sale: both services as processes on the devstack, the sale itself and its report. */
package io.github.flashstock.sale;
